// Types of status-update-validate.generated.js (written by web/scripts/fnol-validator.ts): ajv standalone validators.
export interface StatusUpdateValidationError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}
export interface StatusUpdateValidate {
  (body: unknown): boolean;
  errors?: StatusUpdateValidationError[] | null;
}
/** POST …/status-updates */
export const statusUpdate: StatusUpdateValidate;
/** POST …/closing */
export const closing: StatusUpdateValidate;
