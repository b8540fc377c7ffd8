export { registerDeliveryMetrics } from './delivery-metrics';
export { deliveryRoutes } from './delivery-routes';
export { HAS_FAILED_DELIVERY, deliveriesStore } from './delivery-store';
export { deliveryWorkerHandle } from './delivery-worker';
