import { Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { StoredImageInfo } from '#contract/case.ts';
import { useCaseStore } from '#renderer/shared/case/case-store.ts';
import { LeadOnly, useCan } from '#renderer/shared/team/LeadOnly.tsx';
import { Button } from '#renderer/ui/Button.tsx';
import { Dialog } from '#renderer/ui/Dialog.tsx';
import { formatDateTime } from '#renderer/ui/time.tsx';
import { ImageViewer } from './ImageViewer.tsx';

const TYPE_WORDS: Record<string, string> = {
  passport: 'Passport',
  license: 'Driver’s license',
  idCard: 'ID card',
};
const titleOf = (image: StoredImageInfo) =>
  `${TYPE_WORDS[image.documentType] ?? image.documentType}, uploaded ${formatDateTime(image.at)}`;

/** Images of the documents uploaded from this desk: thumbnails that open the viewer, each removable. */
export function StoredImages() {
  const images = useCaseStore((state) => state.images);
  const [sources, setSources] = useState<Record<string, string>>({});
  const [viewing, setViewing] = useState<StoredImageInfo | null>(null);
  const [removing, setRemoving] = useState<StoredImageInfo | null>(null);
  const asked = useRef(new Set<string>());
  const purge = useCan('purgeImages');

  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  // Each image is asked for once; a reload of the list (a new array) does not drop an answer on its way.
  useEffect(() => {
    for (const info of images) {
      if (asked.current.has(info.documentId)) continue;
      asked.current.add(info.documentId);
      void useCaseStore
        .getState()
        .image(info.documentId)
        .then((image) => {
          if (!mounted.current) return;
          const src = `data:${image.contentType};base64,${image.base64}`;
          setSources((held) => ({ ...held, [info.documentId]: src }));
        })
        .catch(() => asked.current.delete(info.documentId));
    }
  }, [images]);

  if (images.length === 0) return null;
  return (
    <section aria-labelledby="case-images" className="case-section">
      <h3 id="case-images">Documents sent from this desk</h3>
      <ul className="stored-images">
        {images.map((image) => (
          <li key={image.documentId}>
            <button
              type="button"
              className="thumbnail"
              onClick={() => setViewing(image)}
              aria-label={`View ${titleOf(image)}`}
            >
              {sources[image.documentId] ? (
                <img src={sources[image.documentId]} alt="" />
              ) : (
                <span>Loading…</span>
              )}
            </button>
            <span>{titleOf(image)}</span>
            {purge && (
              <Button size="sm" weight="quiet" icon={Trash2} onClick={() => setRemoving(image)}>
                Remove stored image
              </Button>
            )}
          </li>
        ))}
      </ul>
      {!purge && <LeadOnly action="purgeImages" />}
      <ImageViewer
        src={viewing ? (sources[viewing.documentId] ?? null) : null}
        title={viewing ? titleOf(viewing) : ''}
        onClose={() => setViewing(null)}
      />
      <Dialog open={removing !== null} title="Remove the stored image?" onClose={() => setRemoving(null)}>
        <p>
          Vetted deletes its copy of this image for good; the service keeps the document. The audit log
          records the removal.
        </p>
        <div className="actions dialog-actions">
          <Button
            weight="danger"
            icon={Trash2}
            data-autofocus
            onClick={() => {
              const target = removing;
              setRemoving(null);
              if (target) void useCaseStore.getState().purgeImage(target.documentId);
            }}
          >
            Remove
          </Button>
          <Button onClick={() => setRemoving(null)}>Cancel</Button>
        </div>
      </Dialog>
    </section>
  );
}
