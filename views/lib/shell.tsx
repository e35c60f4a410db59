import { createContext, useContext } from 'react';

export type ShellUser = { id: string; name: string; email: string; role: 'user' | 'admin' | string; profilePicUrl: string };

export type Shell = {
  user: ShellUser | null;
  path: string;
  origin: string;
  supportEmail: string;
  /** Payments go to the built-in PayPal simulator on a public (https) site: a banner says so. */
  paymentsSimulated?: boolean;
};

export const emptyShell: Shell = { user: null, path: '/', origin: '', supportEmail: '' };

const ShellContext = createContext<Shell>(emptyShell);
export const ShellProvider = ShellContext.Provider;

/** The shell (signed-in user, path, origin) of the page being rendered on the server. */
export function useShell(): Shell {
  return useContext(ShellContext);
}
