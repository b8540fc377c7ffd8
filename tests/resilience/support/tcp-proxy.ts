/** The TCP proxy for outage scenarios lives in @platform/testing; re-exported here for the scenarios. */
export { createTcpProxy, type TcpProxy } from '../../../packages/testing/src/tcp-proxy';
