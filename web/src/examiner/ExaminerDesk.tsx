import { useEffect, useMemo } from 'react';
import { NavLink, Route, Routes } from 'react-router-dom';
import { RequireSession, useSession } from '../workbench/WorkbenchSession';
import { ApprovalQueue } from './ApprovalQueue';
import { AuditPage } from './AuditPage';
import { ControlsPage } from './ControlsPage';
import { RunPage } from './RunPage';
import { RunsPage } from './RunsPage';
import { canApprove, canAudit, canWrite, examinerSession } from '../workbench/session';
import '../workbench/workbench.css';
import './examiner.css';

/**
 * /workbench/examiner/* — the examiner desk: approval queue, runs, controls and the audit log. It is a
 * workbench page: the workbench's sign-in, and its header (back to the work queue, sign out).
 */
export function ExaminerDesk() {
  return (
    <RequireSession>
      <Desk />
    </RequireSession>
  );
}

function Desk() {
  const signedIn = useSession();
  const session = useMemo(() => examinerSession(signedIn), [signedIn]);
  useEffect(() => {
    document.documentElement.lang = 'en';
    document.title = 'Examiner desk · Workbench';
  }, []);
  return (
    <main className="examiner">
      <h1>Examiner desk</h1>
      <nav aria-label="Examiner desk" className="tabs">
        <NavLink to="/workbench/examiner" end>
          Approval queue
        </NavLink>
        <NavLink to="/workbench/examiner/runs">Runs</NavLink>
        <NavLink to="/workbench/examiner/controls">Controls</NavLink>
        <NavLink to="/workbench/examiner/audit">Audit log</NavLink>
      </nav>
      {!canWrite(session) && !canApprove(session) && !canAudit(session) ? (
        <p className="notice">
          The examiner desk is for people who prepare evidence, approve runs or examine the audit log; your sign-in includes none of these.
          Ask for the access you need, or go back to the work queue.
        </p>
      ) : (
        <Routes>
          <Route index element={<ApprovalQueue session={session} />} />
          <Route path="runs" element={<RunsPage session={session} />} />
          <Route path="runs/:runId" element={<RunPage session={session} />} />
          <Route path="controls" element={<ControlsPage session={session} />} />
          <Route path="audit" element={<AuditPage session={session} />} />
        </Routes>
      )}
    </main>
  );
}
