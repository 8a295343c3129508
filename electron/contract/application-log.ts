// Where the application log is and what to do after an unexpected error, said one way by every face (house rule 14):
// core's logger writes LOG_FOLDER_NAME/LOG_FILE_NAME in the data folder, and every message about an unexpected
// error points there, never to an absolute path (IPC answers do not carry the user's home folder).

/** The log folder, inside the data folder (the folder of the desk database). */
export const LOG_FOLDER_NAME = 'logs';
/** The current log file; older ones are `treasury-desk.1.log`, `treasury-desk.2.log`, ... (newest first). */
export const LOG_FILE_NAME = 'treasury-desk.log';
/** The log as people are told where it is. */
export const LOG_LOCATION = `${LOG_FOLDER_NAME}/${LOG_FILE_NAME} in the Treasury Desk data folder`;
/** What to do when something failed unexpectedly: the same advice in the app, the CLI and the harness. */
export const UNEXPECTED_ERROR_ADVICE =
  `the details are in ${LOG_LOCATION}. Try again; if it happens again, export diagnostics ` +
  `(Settings, "Export diagnostics", or "treasury-desk diagnostics --out FILE") and send the file to your support contact.`;

/** "`what`; the details are in logs/treasury-desk.log ... send the file to your support contact." */
export function unexpectedErrorMessage(what: string): string {
  return `${what}; ${UNEXPECTED_ERROR_ADVICE}`;
}
