import type { LossType } from './vocabulary';

export interface RequiredDocument {
  type: string;
  received: boolean;
}

/**
 * The documents a claim of each loss type needs (mirrored in docs/claims.md). When the claimant reports
 * injuries, `medical_report` is added if the list lacks it.
 */
export const REQUIRED_DOCUMENTS: Readonly<Record<LossType, readonly string[]>> = {
  auto_collision: ['photos_of_damage', 'repair_estimate', 'police_report'],
  auto_glass: ['photos_of_damage', 'glass_repair_invoice'],
  auto_theft: ['police_report', 'proof_of_ownership'],
  property_water: ['photos_of_damage', 'repair_estimate', 'plumber_report'],
  property_fire: ['photos_of_damage', 'fire_department_report', 'inventory_of_damaged_items'],
  property_theft: ['police_report', 'proof_of_ownership', 'inventory_of_stolen_items'],
  property_weather: ['photos_of_damage', 'repair_estimate'],
  liability: ['photos_of_scene', 'third_party_details'],
  injury: ['medical_report', 'medical_bills'],
  other: ['supporting_documents'],
};

/** Every document type any checklist can hold, plus `other` (what an attachment may be filed as). */
export const DOCUMENT_TYPES: readonly string[] = [
  ...new Set([...Object.values(REQUIRED_DOCUMENTS).flat(), 'medical_report', 'other']),
].sort();

export function requiredDocumentsFor(lossType: LossType, injuries: boolean | null): RequiredDocument[] {
  const types = [...REQUIRED_DOCUMENTS[lossType]];
  if (injuries && !types.includes('medical_report')) types.push('medical_report');
  return types.map((type) => ({ type, received: false }));
}

/** "photos_of_damage" → "photos of damage", for text a claimant reads. */
export function describeDocumentType(type: string): string {
  return type.replace(/_/g, ' ');
}
