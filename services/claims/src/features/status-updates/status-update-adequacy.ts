/** Adequacy scoring lives in @platform/claims-domain: the workbench composer scores a draft with the same rules. */
export { ADEQUACY_WEIGHTS, computeAdequacy, type AdequacyInput } from '@platform/claims-domain';
