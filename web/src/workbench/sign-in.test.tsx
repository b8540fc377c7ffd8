import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { DevelopmentSignIn } from './SignInPage';

describe('development sign-in', () => {
  it('offers the scopes the gateway says a sign-in asks for (audit:read for the examiner desk), without openid', () => {
    render(
      <MemoryRouter>
        <DevelopmentSignIn returnTo="/workbench" scopes="openid claims:read evidence:approve audit:read" />
      </MemoryRouter>,
    );
    const offered = screen.getAllByRole('checkbox').map((box) => (box as HTMLInputElement).value);
    expect(offered).toEqual(['claims:read', 'evidence:approve', 'audit:read']);
  });
});
