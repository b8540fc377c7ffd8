export { parseAuthorityLimits } from './authority-limits';
export { claimPaymentDecided, claimPaymentRequested, claimPaymentVoided, claimReserveChanged } from './financials-events';
export { financialsRoutes } from './financials-routes';
export { claimantPaymentSchema } from './financials-schemas';
export { claimantPayments, settleReservesOnClosing } from './financials-service';
