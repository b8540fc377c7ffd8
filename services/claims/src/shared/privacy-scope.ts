/** The scope of privacy officers: subject-access exports and the claims' access logs. */
export const PRIVACY_SCOPE = 'privacy:manage';
