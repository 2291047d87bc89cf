// /api/docs: starts Swagger UI (served from the installed swagger-ui-bundle package, integrity-checked)
// on the schema at /api/docs/openapi.json. A file of its own, so the page's Content-Security-Policy needs
// no 'unsafe-inline'. The page is sandboxed (an opaque origin): it cannot read the chat page's
// sessionStorage, and "Try it out" is off (the API answers no cross-origin calls).
"use strict";
window.addEventListener("DOMContentLoaded", function () {
  window.ui = SwaggerUIBundle({
    url: "/api/docs/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    supportedSubmitMethods: [],
    queryConfigEnabled: false,
    validatorUrl: null,
  });
});
