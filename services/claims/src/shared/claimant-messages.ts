import { IntlMessageFormat } from 'intl-messageformat';

/**
 * Every text the service writes to a claimant, per language, in ICU message format (FormatJS
 * intl-messageformat). A claim's language is a BCP 47 tag; its primary subtag picks the catalogue
 * (`es-MX` → `es`). A language without a catalogue falls back to English, and the stored update says so
 * in `language_fallback_from` (docs/claims.md, "Languages").
 */
const en = {
  acknowledgementWhatHappened: 'We received your claim {claimNumber}.',
  acknowledgementWhatHappensNext: 'A claims specialist will review it and contact you by {firstContactDue, date, day}.',
  acknowledgementWhatWeNeed: 'Please upload: {documents}.',
  acknowledgementCtaLabel: 'Upload your documents',
  documentType:
    '{type, select, photos_of_damage {photos of damage} repair_estimate {repair estimate} police_report {police report} ' +
    'glass_repair_invoice {glass repair invoice} proof_of_ownership {proof of ownership} plumber_report {plumber report} ' +
    'fire_department_report {fire department report} inventory_of_damaged_items {inventory of damaged items} ' +
    'inventory_of_stolen_items {inventory of stolen items} photos_of_scene {photos of the scene} third_party_details {third party details} ' +
    'medical_report {medical report} medical_bills {medical bills} supporting_documents {supporting documents} other {other documents}}',
  withdrawalWhatHappened: 'You withdrew your claim {claimNumber}, and we have closed it.',
  withdrawalWhatHappensNext: 'Nothing more happens with this claim. If you withdrew it by mistake, contact us and we can reopen it.',
  updateSubject: 'Update on your claim {claimNumber}',
  updateWhatHappensNext: 'What happens next: {text}',
  updateWhatWeNeed: 'What we need from you: {text}',
  updateNextUpdateBy: 'Your next update by: {date, date, day}',
  updateFollow: 'Follow your claim: {url}',
  updateQuestions: 'Questions: {contact}',
  teamContactName: 'Claims team',
  accessLinkSubject: 'Your link to claim {claimNumber}',
  accessLinkText:
    'You asked for a new link to follow your claim {claimNumber}:\n{link}\nIt replaces every link we sent you before. If you did not ask for it, you can ignore this message.',
  exportLinkSubject: 'Your data from claim {claimNumber} is ready',
  exportLinkText:
    'You asked for a copy of the data we hold about you (claim {claimNumber}). Download it here, once, by {expiresAt, date, day}:\n{link}\nIf you did not ask for it, contact us.',
} as const;

export type ClaimantMessageId = keyof typeof en;

const es: Record<ClaimantMessageId, string> = {
  acknowledgementWhatHappened: 'Hemos recibido su reclamación {claimNumber}.',
  acknowledgementWhatHappensNext:
    'Un especialista en reclamaciones la revisará y se pondrá en contacto con usted antes del {firstContactDue, date, day}.',
  acknowledgementWhatWeNeed: 'Por favor, envíenos: {documents}.',
  acknowledgementCtaLabel: 'Enviar sus documentos',
  documentType:
    '{type, select, photos_of_damage {fotos de los daños} repair_estimate {presupuesto de reparación} police_report {denuncia policial} ' +
    'glass_repair_invoice {factura de reparación del cristal} proof_of_ownership {prueba de propiedad} plumber_report {informe del fontanero} ' +
    'fire_department_report {informe de los bomberos} inventory_of_damaged_items {inventario de bienes dañados} ' +
    'inventory_of_stolen_items {inventario de bienes robados} photos_of_scene {fotos del lugar} third_party_details {datos del tercero} ' +
    'medical_report {informe médico} medical_bills {facturas médicas} supporting_documents {documentos justificativos} other {otros documentos}}',
  withdrawalWhatHappened: 'Ha retirado su reclamación {claimNumber} y la hemos cerrado.',
  withdrawalWhatHappensNext:
    'No habrá más gestiones en esta reclamación. Si la retiró por error, contacte con nosotros y podemos reabrirla.',
  updateSubject: 'Novedades sobre su reclamación {claimNumber}',
  updateWhatHappensNext: 'Próximos pasos: {text}',
  updateWhatWeNeed: 'Lo que necesitamos de usted: {text}',
  updateNextUpdateBy: 'Su próxima actualización antes del: {date, date, day}',
  updateFollow: 'Siga su reclamación: {url}',
  updateQuestions: 'Preguntas: {contact}',
  teamContactName: 'Equipo de siniestros',
  accessLinkSubject: 'Su enlace a la reclamación {claimNumber}',
  accessLinkText:
    'Ha pedido un nuevo enlace para seguir su reclamación {claimNumber}:\n{link}\nSustituye a todos los enlaces que le enviamos antes. Si no lo pidió, puede ignorar este mensaje.',
  exportLinkSubject: 'Sus datos de la reclamación {claimNumber} están listos',
  exportLinkText:
    'Ha pedido una copia de los datos que tenemos sobre usted (reclamación {claimNumber}). Descárguela aquí, una sola vez, antes del {expiresAt, date, day}:\n{link}\nSi no lo pidió, contacte con nosotros.',
};

const CATALOGUES: Record<string, Record<ClaimantMessageId, string>> = { en, es };

/** The languages the catalogue has texts in. */
export const CLAIMANT_LANGUAGES = Object.keys(CATALOGUES);

/** Dates are shown as their calendar day in `timeZone`, spelled the language's way. */
const dayFormat = (timeZone: string) => ({ date: { day: { year: 'numeric', month: 'long', day: 'numeric', timeZone } } }) as const;

export interface ClaimantMessages {
  /** The catalogue language the texts are written in (`en`, `es`). */
  language: string;
  /** The claim's language when the catalogue has none for it and the texts fell back to English; otherwise null. */
  fallbackFrom: string | null;
  format(id: ClaimantMessageId, values?: Record<string, string | Date>): string;
}

/** Compiled messages by language, time zone (a valid one; names are case-insensitive) and id: parsing a message costs far more than formatting it. */
const compiledMessages = new Map<string, IntlMessageFormat>();

function compiled(language: string, catalogue: Record<ClaimantMessageId, string>, id: ClaimantMessageId, timeZone: string) {
  const key = `${language} ${timeZone.toLowerCase()} ${id}`;
  let message = compiledMessages.get(key);
  if (!message) {
    message = new IntlMessageFormat(catalogue[id], language, dayFormat(timeZone));
    compiledMessages.set(key, message);
  }
  return message;
}

/**
 * The catalogue for a claim's BCP 47 language tag, falling back to English; dates as days in the claim's
 * IANA time zone (UTC when it has none: pass a calendar date as `new Date('YYYY-MM-DD')`).
 */
export function claimantMessages(languageTag: string | null, timeZone: string | null = null): ClaimantMessages {
  const primary = (languageTag ?? 'en').split('-')[0].toLowerCase();
  const language = primary in CATALOGUES ? primary : 'en';
  const catalogue = CATALOGUES[language];
  return {
    language,
    fallbackFrom: language === primary ? null : languageTag,
    format(id, values = {}) {
      return String(compiled(language, catalogue, id, timeZone ?? 'UTC').format(values));
    },
  };
}
