import {
  Activity,
  FlaskConical,
  Inbox,
  type LucideIcon,
  ScrollText,
  Settings,
  ShieldCheck,
  UserPlus,
  Users,
  Webhook,
} from 'lucide-react';
import { Suspense, useEffect } from 'react';
import { QueueScreen } from './features/queue/QueueScreen.tsx';
import { useWebhooksStore } from './features/webhooks/webhooks-store.ts';
import {
  AuditScreen,
  DraftScreen,
  EventLogScreen,
  loadScreensSoon,
  SandboxScreen,
  SettingsScreen,
  TeamScreen,
  WebhooksScreen,
} from './screens.ts';
import { useWatch } from './shared/data/watch.ts';
import { useJobStore } from './shared/jobs/job-store.ts';
import { seesTeam, useTeamViewStore } from './shared/team/team-view-store.ts';
import { watchViewing } from './shell/being-told.ts';
import { QUEUE_PARTS } from './shell/queue-parts.tsx';
import { StatusBar } from './shell/StatusBar.tsx';
import { useToastStore } from './shell/toast-store.ts';
import { useAppStore, type View } from './store.ts';
import { Button } from './ui/Button.tsx';
import { Tag } from './ui/Tag.tsx';
import { Toasts } from './ui/Toasts.tsx';

const VIEWS: { view: View; label: string; icon: LucideIcon; sandboxOnly?: true; leadOnly?: true }[] = [
  { view: 'queue', label: 'Queue', icon: Inbox },
  { view: 'draft', label: 'New customer', icon: UserPlus },
  { view: 'events', label: 'Events', icon: Activity },
  { view: 'webhooks', label: 'Webhooks', icon: Webhook },
  { view: 'audit', label: 'Audit', icon: ScrollText },
  // A team lead's: a reviewer and a solo desk do not see it (reached by its address, it says why).
  { view: 'team', label: 'Team', icon: Users, leadOnly: true },
  { view: 'settings', label: 'Settings', icon: Settings },
  // Only while on the built-in sandbox: its controls mean nothing on a real service.
  { view: 'sandbox', label: 'Sandbox', icon: FlaskConical, sandboxOnly: true },
];

export function App() {
  const { info, service, problem, view, draftId, draftOpening, show, load, openCustomer } = useAppStore();
  const onSandbox = service?.mode === 'sandbox';
  const lead = seesTeam(useTeamViewStore((state) => state.me));
  const toasts = useToastStore((state) => state.toasts);

  useEffect(() => {
    void load();
    void useTeamViewStore.getState().loadMe();
  }, [load]);
  // The queue fetches the other screens once its rows are painted; an empty queue or another first
  // screen still gets them a little later.
  useEffect(() => {
    const soon = setTimeout(loadScreensSoon, 3000);
    return () => clearTimeout(soon);
  }, []);
  // What the whole app follows for as long as it runs; each screen watches its own store.
  useWatch(useAppStore.getState().watch);
  useWatch(useToastStore.getState().watch);
  // Main hears which case is on screen and whether the window has the focus (no notification for it).
  useWatch(watchViewing);
  useWatch(useJobStore.getState().watch);
  useWatch(useWebhooksStore.getState().watchCatchUps);
  useWatch(useTeamViewStore.getState().watchMe);

  return (
    <div className="shell">
      <header className="shell-header">
        <h1 className="brand">
          <ShieldCheck aria-hidden="true" className="brand-mark" />
          Vetted
        </h1>
        {service?.mode === 'sandbox' && (
          <Tag tone="warning" icon={FlaskConical} title="Built-in sandbox: no real customers">
            Sandbox
          </Tag>
        )}
        <nav aria-label="Main" className="main-nav">
          {VIEWS.filter((item) => (onSandbox || !item.sandboxOnly) && (lead || !item.leadOnly)).map(
            (item) => (
              <Button
                key={item.view}
                weight="quiet"
                icon={item.icon}
                aria-current={view === item.view ? 'page' : undefined}
                onClick={() => show(item.view)}
              >
                {item.label}
              </Button>
            ),
          )}
        </nav>
      </header>
      <main className="shell-main">
        <Suspense fallback={<p role="status">Loading…</p>}>
          {problem ? (
            <p role="alert">{problem}</p>
          ) : view === 'settings' ? (
            <SettingsScreen />
          ) : view === 'events' ? (
            <EventLogScreen />
          ) : view === 'sandbox' && onSandbox ? (
            <SandboxScreen />
          ) : view === 'webhooks' ? (
            <WebhooksScreen />
          ) : view === 'audit' ? (
            <AuditScreen />
          ) : view === 'team' ? (
            <TeamScreen />
          ) : view === 'draft' ? (
            <DraftScreen key={draftOpening} draftId={draftId} />
          ) : (
            <QueueScreen onRowsPainted={loadScreensSoon} parts={QUEUE_PARTS} />
          )}
        </Suspense>
      </main>
      <StatusBar info={info} service={service} />
      <Toasts
        toasts={toasts}
        onDismiss={useToastStore.getState().dismiss}
        onOpen={(toast) => openCustomer(toast.customerId)}
      />
    </div>
  );
}
