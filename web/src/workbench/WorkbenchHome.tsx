import { Route, Routes } from 'react-router-dom';
import { ApprovalQueuePage } from './ApprovalQueuePage';
import { ClaimPage } from './claim/ClaimPage';
import { DiaryPage } from './DiaryPage';
import { OverviewPage } from './OverviewPage';
import { QueuePage } from './QueuePage';
import { SignInCallbackPage, SignInPage } from './SignInPage';
import { RequireSession } from './WorkbenchSession';
import './workbench.css';
import './workbench-layout.css';

/** /workbench/* — the adjuster workbench (the examiner desk has its own route under /workbench/examiner). */
export function WorkbenchHome() {
  return (
    <Routes>
      <Route path="sign-in" element={<SignInPage />} />
      <Route path="callback" element={<SignInCallbackPage />} />
      <Route
        index
        element={
          <RequireSession>
            <QueuePage />
          </RequireSession>
        }
      />
      <Route
        path="overview"
        element={
          <RequireSession>
            <OverviewPage />
          </RequireSession>
        }
      />
      <Route
        path="diary"
        element={
          <RequireSession>
            <DiaryPage />
          </RequireSession>
        }
      />
      <Route
        path="approvals"
        element={
          <RequireSession>
            <ApprovalQueuePage />
          </RequireSession>
        }
      />
      <Route
        path="claims/:claimId"
        element={
          <RequireSession>
            <ClaimPage />
          </RequireSession>
        }
      />
    </Routes>
  );
}
