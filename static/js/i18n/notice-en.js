// Texts of the host's maintenance notice (notice.js, loadPart("notice")); the same keys as notice-de.js.
export default {
  "notice.restart_in": "The server restarts in {time}",
  "notice.restart_now": "The server restarts now",
  "notice.restart_min_one": "The server restarts in about 1 minute",
  "notice.restart_min": "The server restarts in about {n} minutes",
};
