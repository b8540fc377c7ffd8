import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { currentSession, endSession, type WorkbenchSession } from './session';

const SessionContext = createContext<WorkbenchSession | null>(null);

/** The signed-in person of a workbench page (inside RequireSession). */
export function useSession(): WorkbenchSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in workbench page');
  return session;
}

export function usePageTitle(title: string) {
  useEffect(() => {
    document.documentElement.lang = 'en';
    document.title = `${title} · Workbench`;
  }, [title]);
}

/** A workbench page for a signed-in person: without a session it sends them to sign in and back here. */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const [session] = useState(() => currentSession());
  if (!session) return <Navigate to={`/workbench/sign-in?return_to=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return (
    <SessionContext.Provider value={session}>
      <WorkbenchFrame session={session}>{children}</WorkbenchFrame>
    </SessionContext.Provider>
  );
}

function WorkbenchFrame({ session, children }: { session: WorkbenchSession; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <div className="workbench workbench--wide">
      <header className="workbench-header">
        <Link to="/workbench" className="workbench-brand">
          Workbench
        </Link>
        <nav aria-label="Workbench">
          <Link to="/workbench">Work queue</Link> <Link to="/workbench/overview">Overview</Link>{' '}
          <Link to="/workbench/examiner">Examiner desk</Link>
        </nav>
        <span className="workbench-user">
          Signed in as <strong>{session.sub}</strong>{' '}
          <button
            type="button"
            className="secondary"
            onClick={() => {
              endSession();
              navigate('/workbench/sign-in');
            }}
          >
            Sign out
          </button>
        </span>
      </header>
      {children}
    </div>
  );
}
