import { DELETE_SUBSCRIPTION_WARNING, type SubscriptionView } from '#contract/webhooks.ts';
import { Dialog } from '#renderer/ui/Dialog.tsx';
import { useWebhooksStore } from './webhooks-store.ts';

interface DeleteSubscriptionDialogProps {
  /** The subscription to delete; null while the dialog is closed. */
  subscription: SubscriptionView | null;
  onClose(): void;
}

/** Asks before deleting: the service forgets the subscription's delivery history with it. */
export function DeleteSubscriptionDialog({ subscription, onClose }: DeleteSubscriptionDialogProps) {
  return (
    <Dialog open={subscription !== null} title="Delete subscription" onClose={onClose}>
      {subscription && (
        <>
          <p>
            Delete the subscription to <strong className="webhooks-url">{subscription.url}</strong>?
          </p>
          <p>{DELETE_SUBSCRIPTION_WARNING}</p>
          <div className="actions">
            <button
              type="button"
              className="button button-danger"
              onClick={() => {
                onClose();
                void useWebhooksStore.getState().remove(subscription);
              }}
            >
              Delete
            </button>
            {/* The safe choice takes the focus: Enter right after opening must not delete. */}
            <button type="button" data-autofocus onClick={onClose}>
              Cancel
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
