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
    files: ["tests/js/**/*.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.node } },
    rules: { "max-len": ["error", { code: 120 }] },
  },
];
