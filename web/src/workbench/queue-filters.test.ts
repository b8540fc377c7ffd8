import { afterEach, describe, expect, it } from 'vitest';
import {
  ariaSort,
  deleteView,
  filtersFromSearch,
  filtersToSearch,
  listQuery,
  nextSort,
  NO_FILTERS,
  savedViews,
  saveView,
  type QueueFilters,
} from './queue-filters';

describe('the work queue view in the URL', () => {
  afterEach(() => localStorage.clear());

  it('keeps the sort with the filters, so a shared link reproduces the view', () => {
    const view: QueueFilters = { ...NO_FILTERS, ownership: 'unassigned', stage: 'assigned', sort: 'estimated_amount' };
    const link = filtersToSearch(view).toString();
    expect(link).toBe('stage=assigned&ownership=unassigned&sort=estimated_amount');
    expect(filtersFromSearch(new URLSearchParams(link))).toEqual(view);
    expect(listQuery(filtersFromSearch(new URLSearchParams(link)))).toEqual({
      limit: 25,
      stage: ['assigned'],
      unassigned: true,
      sort: 'estimated_amount',
    });
  });

  it('leaves the default order out of the URL and ignores a sort it does not know', () => {
    expect(filtersToSearch({ ...NO_FILTERS, sort: '-created_at' }).toString()).toBe('');
    expect(filtersFromSearch(new URLSearchParams('sort=claimant_name')).sort).toBe('');
    expect(filtersFromSearch(new URLSearchParams('sort=-severity')).sort).toBe('-severity');
  });

  it('does not send a sort with a search (a search is ranked best match first), but keeps it for when the search is cleared', () => {
    const searching: QueueFilters = { ...NO_FILTERS, q: 'Okafur', sort: '-severity' };
    expect(listQuery(searching)).toEqual({ limit: 25, q: 'Okafur' });
    expect(filtersFromSearch(filtersToSearch(searching))).toEqual(searching);
    expect(listQuery({ ...searching, q: 'Ok' })).toEqual({ limit: 25, sort: '-severity' });
  });

  it('cycles a column header: descending, ascending, then the default order', () => {
    expect(nextSort('', 'severity')).toBe('-severity');
    expect(nextSort('-severity', 'severity')).toBe('severity');
    expect(nextSort('severity', 'severity')).toBe('');
    expect(nextSort('-severity', 'estimated_amount')).toBe('-estimated_amount');
    expect(ariaSort('', 'created_at')).toBe('descending');
    expect(ariaSort('severity', 'severity')).toBe('ascending');
    expect(ariaSort('severity', 'created_at')).toBe('none');
  });

  it('saves named views as their URL, replaces one of the same name, deletes one, and survives a damaged list', () => {
    saveView('Big unassigned', { ...NO_FILTERS, ownership: 'unassigned', sort: '-estimated_amount' });
    saveView('Mine', { ...NO_FILTERS, ownership: 'mine' });
    saveView('Mine', { ...NO_FILTERS, ownership: 'mine', overdue: 'any' });
    expect(savedViews()).toEqual([
      { name: 'Big unassigned', search: 'ownership=unassigned&sort=-estimated_amount' },
      { name: 'Mine', search: 'ownership=mine&overdue=any' },
    ]);
    expect(deleteView('Big unassigned')).toEqual([{ name: 'Mine', search: 'ownership=mine&overdue=any' }]);
    localStorage.setItem('workbench-saved-views', '{not json');
    expect(savedViews()).toEqual([]);
  });
});
