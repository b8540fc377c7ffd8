import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RequestFailed } from './RequestFailed';

describe('a failed request', () => {
  it('says what failed and why, as an alert, and Retry tries again', async () => {
    const retry = vi.fn();
    render(<RequestFailed what="The work queue" error={new Error('Failed to fetch')} onRetry={retry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('The work queue could not be loaded: Failed to fetch');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });
});
