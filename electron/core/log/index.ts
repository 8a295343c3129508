// The application log and its redaction layer: the one way the engine, main and the CLI record what went wrong.
export { ApplicationLog, appLog, LOG_SETTINGS, logFolderFor, type LogConfig, type LogFace, type Logger, type LogLevel } from './logger';
export { isSecretFieldName, Redactor, REDACTED, registerRequestSecrets, registerSecret, registerSecretFields, secretRedactor, type SecretKind } from './redact';
export type { LogFileInfo } from './rotating-file';
