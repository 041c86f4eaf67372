// The rules page (docs/rules.md, served as HTML by the app): only the top bar is translated.
import { initI18n } from "./i18n.js";

initI18n();
