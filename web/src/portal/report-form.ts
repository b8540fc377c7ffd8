import type { LossType } from '@platform/claims-domain';
import type { MessageKey } from '../i18n/messages';
import validateFnolBody from './fnol-validate.generated.js';

/** What the claimant types into the report-a-loss form, as typed. */
export interface ReportFields {
  name: string;
  policyNumber: string;
  lossType: LossType | '';
  description: string;
  date: string;
  address: string;
  city: string;
  email: string;
  phone: string;
  language: 'en' | 'es';
}

export type ReportField = keyof ReportFields;

/** Where each field lands in the first-notice-of-loss body (a JSON Pointer, as ajv and problem+json name it). */
const POINTERS: Record<Exclude<ReportField, never>, string> = {
  name: '/claimant/name',
  email: '/claimant/email',
  phone: '/claimant/phone',
  policyNumber: '/policy_number',
  lossType: '/loss/type',
  description: '/loss/description',
  date: '/loss/date',
  address: '/loss/location/address_line',
  city: '/loss/location/city',
  language: '/language',
};

/** The field a body pointer names, if the form has it. */
export function fieldAt(pointer: string): ReportField | undefined {
  return (Object.keys(POINTERS) as ReportField[]).find((field) => POINTERS[field] === pointer);
}

/** The API body: text trimmed, empty fields left out (the schema, not the form, decides what is required). */
export function reportBody(fields: ReportFields) {
  const text = (value: string) => (value.trim() === '' ? undefined : value.trim());
  const location = { address_line: text(fields.address), city: text(fields.city) };
  return {
    policy_number: fields.policyNumber.trim(),
    claimant: { name: fields.name.trim(), email: text(fields.email), phone: text(fields.phone.replace(/[\s().-]/g, '')) },
    loss: {
      date: fields.date,
      type: fields.lossType,
      description: fields.description.trim(),
      location: location.address_line || location.city ? location : undefined,
    },
    language: fields.language,
  };
}

/**
 * The form's errors, per field, from the API's own schema (compiled ahead of time: see
 * web/scripts/fnol-validator.ts), plus the one rule the schema cannot say: an email or a phone to write to.
 * Empty when the body may be sent.
 */
export function reportErrors(fields: ReportFields): Partial<Record<ReportField, MessageKey>> {
  const body = JSON.parse(JSON.stringify(reportBody(fields))) as unknown; // as sent: undefined fields gone
  const errors: Partial<Record<ReportField, MessageKey>> = {};
  if (!validateFnolBody(body)) {
    for (const error of validateFnolBody.errors ?? []) {
      const missing = error.keyword === 'required' ? `${error.instancePath}/${String(error.params.missingProperty)}` : null;
      const field = fieldAt(missing ?? error.instancePath);
      if (!field || errors[field]) continue;
      errors[field] = missing ? 'fieldRequired' : error.keyword === 'maxLength' ? 'fieldTooLong' : 'fieldInvalid';
    }
  }
  // minLength on an emptied required field reads as "required", not "invalid"
  for (const field of ['name', 'policyNumber', 'description', 'lossType', 'date'] as const)
    if (errors[field] && fields[field].trim() === '') errors[field] = 'fieldRequired';
  if (!fields.email.trim() && !fields.phone.trim() && !errors.email) errors.email = 'reportNeedContact';
  return errors;
}
