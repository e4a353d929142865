import { create } from 'zustand';
import type { StatusNotice } from '#contract/webhooks.ts';
import { api } from '../api.ts';
import { sharedWatch } from '../shared/data/watch.ts';
import { showWebNotification } from './being-told.ts';

export interface Toast extends StatusNotice {
  id: number;
}

/** Older toasts give way: a reconcile can change many statuses at once. */
const MAX_TOASTS = 5;

interface ToastState {
  toasts: Toast[];
  show(notice: StatusNotice): void;
  dismiss(id: number): void;
  /** The app is on screen (App watches): notices from main become Web Notifications or toasts (browser mode). */
  watch(): () => void;
}

let nextId = 1;

export const useToastStore = create<ToastState>((set) => ({
  toasts: [],
  show: (notice) =>
    set((state) => ({
      // One toast per customer: its newest status is the one that matters.
      toasts: [
        ...state.toasts.filter((toast) => toast.customerId !== notice.customerId),
        { ...notice, id: nextId++ },
      ].slice(-MAX_TOASTS),
    })),
  dismiss: (id) => set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) })),
  watch: sharedWatch(() => {
    // Under Electron main shows a native notification for the same notice: a toast would say it twice.
    const inBrowser = api.app
      .info()
      .then((info) => info.host === 'browser')
      .catch(() => false);
    return api.on('notification.show', (notice) => {
      void inBrowser.then((browser) => {
        // On the desktop (the browser's own notification) when main's rule lets it and the reviewer allowed
        // it; otherwise a toast, inside the window, as before.
        if (!browser) return;
        if (!(notice.desktop && showWebNotification(notice))) useToastStore.getState().show(notice);
      });
    });
  }),
}));
