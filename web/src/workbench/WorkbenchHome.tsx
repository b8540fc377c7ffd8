import { useEffect } from 'react';
import { Link } from 'react-router-dom';

/** /workbench — the adjuster workbench and, under /workbench/examiner, the examiner desk (issue 13: built on this page's shell). */
export function WorkbenchHome() {
  useEffect(() => {
    document.documentElement.lang = 'en';
    document.title = 'Workbench';
  }, []);
  return (
    <div className="workbench">
      <header>
        <h1>Workbench</h1>
      </header>
      <main>
        <nav aria-label="Workbench">
          <ul>
            <li>
              <Link to="/workbench/examiner">Examiner desk</Link>
            </li>
          </ul>
        </nav>
      </main>
    </div>
  );
}
