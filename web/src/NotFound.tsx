export function NotFound() {
  return (
    <main>
      <h1>Page not found</h1>
      <p>
        <a href="/portal/">Claimant portal</a>
      </p>
    </main>
  );
}
