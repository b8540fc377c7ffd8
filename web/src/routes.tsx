import type { RouteObject } from 'react-router-dom';
import { ExaminerDesk } from './examiner/ExaminerDesk';
import { NotFound } from './NotFound';
import { PortalClaimPage, PortalHomePage } from './portal/PortalPage';
import { PortalReportPage } from './portal/ReportPage';
import { WorkbenchHome } from './workbench/WorkbenchHome';

/** Every page of the app; the gateway serves index.html for any path under /portal/ and /workbench/. */
export const routes: RouteObject[] = [
  { path: '/portal', element: <PortalHomePage /> },
  { path: '/portal/report', element: <PortalReportPage /> },
  { path: '/portal/claims/:claimId', element: <PortalClaimPage /> },
  { path: '/workbench/examiner/*', element: <ExaminerDesk /> },
  { path: '/workbench/*', element: <WorkbenchHome /> },
  { path: '*', element: <NotFound /> },
];
