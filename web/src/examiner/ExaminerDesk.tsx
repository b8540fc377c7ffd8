import { useEffect } from 'react';
import { Link, NavLink, Route, Routes } from 'react-router-dom';
import { ApprovalQueue } from './ApprovalQueue';
import { AuditPage } from './AuditPage';
import { ControlsPage } from './ControlsPage';
import { RunPage } from './RunPage';
import { RunsPage } from './RunsPage';
import { useExaminerSession } from './session';
import './examiner.css';

/** /workbench/examiner/* — the examiner desk: approval queue, runs, controls and the audit log. */
export function ExaminerDesk() {
  const session = useExaminerSession();
  useEffect(() => {
    document.documentElement.lang = 'en';
    document.title = 'Examiner desk · Workbench';
  }, []);
  return (
    <div className="workbench examiner">
      <header className="portal-header">
        <h1>Examiner desk</h1>
        {session?.me && <span>Signed in as {session.me}</span>}
      </header>
      {session ? (
        <>
          <nav aria-label="Examiner desk" className="tabs">
            <NavLink to="/workbench/examiner" end>
              Approval queue
            </NavLink>
            <NavLink to="/workbench/examiner/runs">Runs</NavLink>
            <NavLink to="/workbench/examiner/controls">Controls</NavLink>
            <NavLink to="/workbench/examiner/audit">Audit log</NavLink>
          </nav>
          <main>
            <Routes>
              <Route index element={<ApprovalQueue session={session} />} />
              <Route path="runs" element={<RunsPage session={session} />} />
              <Route path="runs/:runId" element={<RunPage session={session} />} />
              <Route path="controls" element={<ControlsPage session={session} />} />
              <Route path="audit" element={<AuditPage session={session} />} />
            </Routes>
          </main>
        </>
      ) : (
        <main>
          <p className="notice">
            <Link to={`/workbench/sign-in?return_to=${encodeURIComponent('/workbench/examiner')}`}>Sign in</Link> first; the desk uses the
            workbench's sign-in.
          </p>
        </main>
      )}
    </div>
  );
}
