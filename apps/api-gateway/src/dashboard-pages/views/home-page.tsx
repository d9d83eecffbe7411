import { DASHBOARD_PATHS, Layout, PageFrame } from '@payouts/web';

/**
 * Home, for now a placeholder: who is signed in and which environment the pages show. The
 * summary of balance and recent activity comes with the Home page itself.
 */
export function HomePage({ frame }: { frame: PageFrame }) {
  return (
    <Layout title="Home" current="home" frame={frame} path={DASHBOARD_PATHS.home}>
      <p>
        You are signed in to <strong>{frame.accountName}</strong>, showing{' '}
        {frame.environment === 'sandbox' ? 'sandbox (test) data' : 'production data'}.
      </p>
    </Layout>
  );
}
