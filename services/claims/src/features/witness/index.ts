export { witnessConsistencyFailed } from './witness-events';
export { startHostedWitness } from './witness-host';
