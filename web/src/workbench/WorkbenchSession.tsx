import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import {
  currentSession,
  hasScope,
  requestSessionFromOtherTabs,
  shareSessionWithOtherTabs,
  signOutEverywhere,
  type WorkbenchSession,
} from './session';

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

/**
 * A workbench page for a signed-in person. Without a session in this tab it first asks the other workbench
 * tabs for theirs (a claim opened in a new tab stays signed in), and only then sends the person to sign in
 * and back here. A sign-out in another tab signs this one out too.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  // undefined while another tab is asked
  const [session, setSession] = useState<WorkbenchSession | null | undefined>(() => currentSession() ?? undefined);
  useEffect(() => {
    if (session !== undefined) return;
    let live = true;
    void requestSessionFromOtherTabs().then((handed) => live && setSession(handed));
    return () => {
      live = false;
    };
  }, [session]);
  useEffect(
    () =>
      shareSessionWithOtherTabs(() => {
        setSession(null);
        navigate('/workbench/sign-in', { replace: true });
      }),
    [navigate],
  );
  if (session === undefined)
    return (
      <main className="workbench">
        <p role="status">Checking your sign-in…</p>
      </main>
    );
  if (!session) return <Navigate to={`/workbench/sign-in?return_to=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return (
    <SessionContext.Provider value={session}>
      <WorkbenchFrame session={session}>{children}</WorkbenchFrame>
    </SessionContext.Provider>
  );
}

/** The id of the work queue's search box, which "/" focuses from anywhere in the workbench. */
export const SEARCH_INPUT_ID = 'queue-search';

/** "/" (outside a text field) focuses the queue's search; on another page it opens the queue with the search focused. */
function useSearchShortcut() {
  const navigate = useNavigate();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      event.preventDefault();
      const search = document.getElementById(SEARCH_INPUT_ID);
      if (search) search.focus();
      else navigate('/workbench', { state: { focusSearch: true } });
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [navigate]);
}

function WorkbenchFrame({ session, children }: { session: WorkbenchSession; children: ReactNode }) {
  const navigate = useNavigate();
  useSearchShortcut();
  return (
    <div className="workbench workbench--wide">
      <header className="workbench-header">
        <Link to="/workbench" className="workbench-brand">
          Workbench
        </Link>
        <nav aria-label="Workbench">
          <Link to="/workbench">Work queue</Link> <Link to="/workbench/diary">My diary</Link>{' '}
          {(hasScope(session, 'claims:write') || hasScope(session, 'claims:decide')) && (
            <>
              <Link to="/workbench/approvals">Payment approvals</Link>{' '}
            </>
          )}
          <Link to="/workbench/overview">Overview</Link> <Link to="/workbench/examiner">Examiner desk</Link>
          {hasScope(session, 'privacy:manage') && (
            <>
              {' '}
              <Link to="/workbench/privacy">Privacy</Link>
            </>
          )}
        </nav>
        <span className="workbench-user">
          Signed in as <strong>{session.sub}</strong>{' '}
          <button
            type="button"
            className="secondary"
            onClick={() => {
              signOutEverywhere();
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
