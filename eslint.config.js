// ESLint (flat config) for the browser client: the recommended rules and lines of at most
// 120 characters, and the same for the node tests of its pure modules (tests/js). `make lint`
// runs it (and `make test` before pytest).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["static/vendor/**", "node_modules/**", ".venv/**"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "max-len": ["error", { code: 120, ignoreUrls: true }],
    },
  },
  {
    files: ["static/sw.js"],  // the service worker: a classic script (every browser runs it)
    languageOptions: { ecmaVersion: 2024, sourceType: "script", globals: { ...globals.serviceworker } },
    rules: { "no-unused-vars": ["error", { varsIgnorePattern: "^(notificationOf|onPush|onClick)$" }],
      "max-len": ["error", { code: 120 }] },
  },
  {
    files: ["tests/js/**/*.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.node } },
    rules: { "max-len": ["error", { code: 120 }] },
  },
];
