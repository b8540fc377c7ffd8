/** A failed request in words (what could not be loaded, and why), with a way to try it again. */
export function RequestFailed({ what, error, onRetry }: { what: string; error: Error; onRetry: () => void }) {
  return (
    <div className="error request-failed" role="alert">
      <p>
        {what} could not be loaded: {error.message}
      </p>
      <button type="button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
