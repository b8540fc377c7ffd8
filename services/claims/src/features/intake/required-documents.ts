/** The required-documents checklist lives in @platform/claims-domain, shared with the web pages. */
export { REQUIRED_DOCUMENTS, DOCUMENT_TYPES, requiredDocumentsFor, describeDocumentType } from '@platform/claims-domain';
