export { privacyVariables, privacyConfigRules } from './claimants-config';
export {
  claimantPrivacy,
  normaliseEmail,
  phoneDigits,
  type ClaimantKeys,
  type ClaimantPrivacy,
  type ClaimantContact,
  type SharedKey,
} from './claimant-keys';
export { claimantPrivacyFor, keyVaultFrom, localKekFile } from './claimant-vault';
export { sealPlainFields, startPlainFieldSealing } from './plain-field-sealing';
export { rewrapKeys, startKeyRewrap, type RewrapPass } from './key-rewrap';
