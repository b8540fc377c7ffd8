// Types of fnol-validate.generated.js (written by web/scripts/fnol-validator.ts): an ajv standalone validator.
export interface FnolValidationError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}
export interface FnolValidate {
  (body: unknown): boolean;
  errors?: FnolValidationError[] | null;
}
export const validate: FnolValidate;
export default validate;
