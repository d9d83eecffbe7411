import { DASHBOARD_PATHS } from './paths';

/** A place in the navigation; a page names the one it belongs to so the layout marks it current. */
export type NavKey = 'home' | 'sendPayouts' | 'payments' | 'balance' | 'settings' | 'apiIntegration';

export interface NavItem {
  key: NavKey;
  label: string;
  href: string;
  children?: readonly NavItem[];
}

/** The navigation, in order. Labels are part of the product: tests and docs refer to them. */
export const NAVIGATION: readonly NavItem[] = [
  { key: 'home', label: 'Home', href: DASHBOARD_PATHS.home },
  { key: 'sendPayouts', label: 'Send payouts', href: DASHBOARD_PATHS.sendPayouts },
  { key: 'payments', label: 'Payments', href: DASHBOARD_PATHS.payments },
  { key: 'balance', label: 'Balance', href: DASHBOARD_PATHS.balance },
  {
    key: 'settings',
    label: 'Settings',
    href: DASHBOARD_PATHS.settings,
    children: [{ key: 'apiIntegration', label: 'API integration', href: DASHBOARD_PATHS.apiIntegration }],
  },
];
