import type { ComponentChildren } from 'preact';
import { Document } from './document';
import { EnvironmentSwitch } from './environment-switch';
import { PostForm, SubmitButton } from './forms';
import { NAVIGATION, NavItem, NavKey } from './navigation';
import type { PageFrame } from './page-frame';
import { DASHBOARD_PATHS, PRODUCT_NAME } from './paths';

export interface LayoutProps {
  /** The page's heading and title. */
  title: string;
  /** The navigation entry the page belongs to. */
  current: NavKey;
  frame: PageFrame;
  /** This page's path: the environment switch comes back to it. */
  path: string;
  children?: ComponentChildren;
}

/**
 * A signed-in dashboard page: header (product, account, environment switch, sign-out), the
 * sandbox's test-data marking, the navigation, and the page in the main landmark.
 */
export function Layout({ title, current, frame, path, children }: LayoutProps) {
  const sandbox = frame.environment === 'sandbox';
  return (
    <Document title={title} bodyClass={sandbox ? 'sandbox' : undefined}>
      <SkipLink />
      <header class="site-header">
        <p class="product">{PRODUCT_NAME}</p>
        <p class="account">
          <span class="visually-hidden">Signed in as </span>
          {frame.accountName}
        </p>
        <EnvironmentSwitch frame={frame} returnTo={path} />
        <PostForm action={DASHBOARD_PATHS.signOut} csrfToken={frame.csrfToken} class="sign-out">
          <SubmitButton class="link-button">Sign out</SubmitButton>
        </PostForm>
      </header>
      {sandbox ? <p class="test-data-banner">Sandbox: test data. Nothing here moves real money.</p> : null}
      <nav class="site-nav" aria-label="Dashboard">
        <NavList items={NAVIGATION} current={current} />
      </nav>
      <main id="main" tabIndex={-1}>
        <h1>{title}</h1>
        {children}
      </main>
    </Document>
  );
}

export interface PublicLayoutProps {
  title: string;
  children?: ComponentChildren;
}

/** A page for someone not signed in (sign-in, errors): no account, no navigation. */
export function PublicLayout({ title, children }: PublicLayoutProps) {
  return (
    <Document title={title}>
      <SkipLink />
      <header class="site-header">
        <p class="product">{PRODUCT_NAME}</p>
      </header>
      <main id="main" tabIndex={-1}>
        <h1>{title}</h1>
        {children}
      </main>
    </Document>
  );
}

function SkipLink() {
  return (
    <a class="skip-link" href="#main">
      Skip to main content
    </a>
  );
}

function NavList({ items, current }: { items: readonly NavItem[]; current: NavKey }) {
  return (
    <ul>
      {items.map((item) => (
        <li key={item.key}>
          <a href={item.href} aria-current={item.key === current ? 'page' : undefined}>
            {item.label}
          </a>
          {item.children ? <NavList items={item.children} current={current} /> : null}
        </li>
      ))}
    </ul>
  );
}
