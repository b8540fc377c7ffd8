import type { RouteObject } from 'react-router-dom';
import { NotFound } from './NotFound';

// Each area is its own chunk (route `lazy`): the portal never downloads the workbench or the examiner desk.
// The chunk names are what the bench and the portal journey look for in dist/assets.
const portal = () => import('./portal/PortalPage');

/** Every page of the app; the gateway serves index.html for any path under /portal/ and /workbench/. */
export const routes: RouteObject[] = [
  { path: '/portal', lazy: () => portal().then((m) => ({ Component: m.PortalHomePage })) },
  { path: '/portal/report', lazy: () => import('./portal/ReportPage').then((m) => ({ Component: m.PortalReportPage })) },
  { path: '/portal/claims/:claimId', lazy: () => portal().then((m) => ({ Component: m.PortalClaimPage })) },
  {
    path: '/workbench/examiner/*',
    lazy: () => import('./examiner/ExaminerDesk').then((m) => ({ Component: m.ExaminerDesk })),
  },
  { path: '/workbench/*', lazy: () => import('./workbench/WorkbenchHome').then((m) => ({ Component: m.WorkbenchHome })) },
  { path: '*', Component: NotFound },
];
