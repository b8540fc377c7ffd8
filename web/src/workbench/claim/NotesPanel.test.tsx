import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { NotesPanel, type ClaimNote } from './NotesPanel';

const note = (over: Partial<ClaimNote>): ClaimNote => ({
  note_id: 'n1',
  body: 'Parts Thursday',
  topic: null,
  corrects: null,
  author: 'adjuster-ann',
  created_at: '2026-03-02T10:15:00.000Z',
  ...over,
});

describe('the notes panel', () => {
  it('shows notes newest first with links clickable and nothing else interpreted, and a correction beside the note it corrects', () => {
    const notes = [
      note({ note_id: 'n2', body: 'Parts Friday, not Thursday', corrects: 'n1', created_at: '2026-03-03T10:15:00.000Z' }),
      note({ body: 'Estimate at https://shop.example/est/77 <b>bold</b>', topic: 'repair' }),
    ];
    render(<NotesPanel notes={notes} onAdd={vi.fn()} />);
    const items = screen.getAllByTestId('note');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Corrects the note of');
    expect(items[1]).toHaveTextContent('Corrected below');
    expect(within(items[1]).getByRole('link', { name: 'https://shop.example/est/77' })).toHaveAttribute(
      'href',
      'https://shop.example/est/77',
    );
    expect(items[1]).toHaveTextContent('<b>bold</b>');
  });

  it('adds a note, then a correction naming the note it corrects, with the keyboard', async () => {
    const onAdd = vi.fn().mockResolvedValue(undefined);
    const user = userEvent.setup();
    render(<NotesPanel notes={[note({})]} onAdd={onAdd} />);
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Write the note first.');
    await user.type(screen.getByLabelText('Note'), 'Called the claimant');
    expect(screen.getByText('19 of 10,000 characters')).toBeInTheDocument();
    await user.keyboard('{Tab}{Enter}');
    expect(onAdd).toHaveBeenLastCalledWith({ body: 'Called the claimant' });
    await user.click(screen.getByRole('button', { name: 'Correct this note' }));
    await user.type(screen.getByLabelText('Correction'), 'Parts Friday');
    await user.click(screen.getByRole('button', { name: 'Add correction' }));
    expect(onAdd).toHaveBeenLastCalledWith({ body: 'Parts Friday', corrects: 'n1' });
  });

  it('says when a note was not saved, keeping the text', async () => {
    const user = userEvent.setup();
    render(<NotesPanel notes={[]} onAdd={vi.fn().mockRejectedValue(new Error('409 Conflict'))} />);
    await user.type(screen.getByLabelText('Note'), 'Keep me');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The note was not saved: 409 Conflict');
    expect(screen.getByLabelText('Note')).toHaveValue('Keep me');
  });
});
