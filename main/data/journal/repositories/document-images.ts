// The interface of the images of documents uploaded from this desk.

export interface StoredImageInfo {
  documentId: string;
  customerId: string;
  at: string;
  documentType: string;
  contentType: string;
}

export interface StoredImage extends StoredImageInfo {
  /** The file's bytes, base64 (a string crosses any process boundary a journal may have). */
  base64: string;
}

export interface DocumentImagesRepository {
  /** Keeps (or replaces) the image of a document. */
  store(image: Omit<StoredImage, 'at'>): Promise<StoredImageInfo>;
  /** A customer's stored images, newest first, without their bytes. */
  list(customerId: string): Promise<StoredImageInfo[]>;
  /** Decrypted; undefined when none is stored (never was, or purged). */
  get(documentId: string): Promise<StoredImage | undefined>;
  /** Deletes the image for good; false when there was none. */
  purge(documentId: string): Promise<boolean>;
}
