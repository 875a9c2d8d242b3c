// Swagger UI for /docs, started from a file of the server's own so the page needs no inline script (its
// Content-Security-Policy allows none; issue 29). The OpenAPI URL comes from this script tag's data-openapi.
(function () {
  const me = document.currentScript;
  window.ui = SwaggerUIBundle({
    url: me.dataset.openapi,
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
})();
