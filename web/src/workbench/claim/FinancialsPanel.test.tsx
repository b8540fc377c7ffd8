import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { centsOf } from '../money';
import { FinancialsPanel, type ClaimFinancials } from './FinancialsPanel';

const usd = (amount: string) => ({ amount, currency: 'USD' });
const figures = (reserve: string, paid: string, awaiting: string, outstanding: string, incurred: string) => ({
  reserve: usd(reserve),
  paid: usd(paid),
  awaiting_approval: usd(awaiting),
  outstanding: usd(outstanding),
  incurred: usd(incurred),
});
const financials: ClaimFinancials = {
  currency: 'USD',
  categories: {
    indemnity: figures('99999999999999.99', '0.00', '0.00', '99999999999999.99', '99999999999999.99'),
    expense: figures('500.00', '250.00', '0.00', '250.00', '500.00'),
  },
  totals: figures('100000000000000.49', '250.00', '0.00', '100000000000000.24', '100000000000000.49'),
  authority_limit: usd('5000.00'),
};

describe('the financials panel', () => {
  it('shows reserves by category, paid, outstanding and totals exactly as the API gives them', () => {
    render(<FinancialsPanel financials={financials} onSetReserve={vi.fn()} onRequestPayment={vi.fn()} />);
    const reserveRow = screen.getByRole('row', { name: /^Reserve/ });
    expect(
      within(reserveRow)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['99999999999999.99 USD', '500.00 USD', '100000000000000.49 USD']);
    expect(screen.getByText('Your authority limit: 5000.00 USD')).toBeInTheDocument();
  });

  it('compares amounts in cents, never as floating point', () => {
    expect(centsOf('99999999999999.99')).toBe(9999999999999999n);
    expect(centsOf('0.1') + centsOf('0.2')).toBe(centsOf('0.3'));
  });

  it('says a payment above the limit needs someone with a higher limit, and requests it with the keyboard', async () => {
    const onRequestPayment = vi.fn().mockResolvedValue(undefined);
    const user = userEvent.setup();
    render(<FinancialsPanel financials={financials} onSetReserve={vi.fn()} onRequestPayment={onRequestPayment} />);
    await user.type(screen.getByLabelText('Amount (USD)'), '5000.00');
    expect(screen.queryByText(/Above your limit/)).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Amount (USD)'), '1');
    expect(screen.getByLabelText('Amount (USD)')).toHaveValue('5000.001');
    await user.clear(screen.getByLabelText('Amount (USD)'));
    await user.type(screen.getByLabelText('Amount (USD)'), '5000.01');
    expect(screen.getByText('Above your limit: someone with a higher limit must approve.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Payee'), 'Ana Ruiz');
    await user.type(screen.getByLabelText('Memo'), 'Settlement{Enter}');
    expect(onRequestPayment).toHaveBeenCalledWith({
      cost_category: 'indemnity',
      amount: usd('5000.01'),
      payee: { name: 'Ana Ruiz', kind: 'claimant' },
      method: 'eft',
      memo: 'Settlement',
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Payment requested for approval.');
  });

  it('refuses an amount with more than two decimals before asking the API, and reports a refusal from it', async () => {
    const onSetReserve = vi.fn().mockRejectedValue(new Error('The claim is closed'));
    const user = userEvent.setup();
    render(<FinancialsPanel financials={financials} onSetReserve={onSetReserve} onRequestPayment={vi.fn()} />);
    await user.type(screen.getByLabelText('Open reserve (USD)'), '10.001');
    await user.type(screen.getByLabelText('Reason'), 'Estimate');
    await user.click(screen.getByRole('button', { name: 'Set reserve' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The reserve must be an amount like 1234.50.');
    expect(onSetReserve).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('Open reserve (USD)'));
    await user.type(screen.getByLabelText('Open reserve (USD)'), '10.50');
    await user.click(screen.getByRole('button', { name: 'Set reserve' }));
    expect(onSetReserve).toHaveBeenCalledWith({ cost_category: 'indemnity', amount: usd('10.50'), reason: 'Estimate' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Reserve set failed: The claim is closed');
  });
});
