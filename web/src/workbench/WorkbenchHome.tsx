import { lazy, Suspense } from 'react';
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

// Only privacy officers open it: its own chunk, outside what every workbench page downloads.
const PrivacyPage = lazy(() => import('./privacy/PrivacyPage').then((m) => ({ default: m.PrivacyPage })));

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
        path="privacy"
        element={
          <RequireSession>
            <Suspense fallback={<p role="status">Loading…</p>}>
              <PrivacyPage />
            </Suspense>
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
