/** The dashboard's addresses, in one place: the layout links to them and the app serves them. */
export const DASHBOARD_PATHS = {
  home: '/dashboard',
  signIn: '/dashboard/sign-in',
  signOut: '/dashboard/sign-out',
  environment: '/dashboard/environment',
  sendPayouts: '/dashboard/send-payouts',
  payments: '/dashboard/payments',
  balance: '/dashboard/balance',
  settings: '/dashboard/settings',
  apiIntegration: '/dashboard/settings/api-integration',
  stylesheet: '/dashboard/assets/dashboard.css',
} as const;

/** The one cookie path of every dashboard cookie: the JSON API elsewhere never receives them. */
export const DASHBOARD_COOKIE_PATH = '/dashboard';

export const PRODUCT_NAME = 'Payouts';
