// /api/docs: Swagger UI on the server's OpenAPI description (a file, not an inline script).
window.addEventListener("load", function () {
  window.SwaggerUIBundle({url: "/api/openapi.json", dom_id: "#swagger-ui", deepLinking: true});
});
