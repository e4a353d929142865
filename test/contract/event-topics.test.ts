import { describe, expect, it } from 'vitest';
import { TOPIC_TEXTS, topicText } from '#contract/event-topics.ts';

describe('topics in words', () => {
  it('names every topic the service interface (§6) and the service facts (§6) list', () => {
    const listed = [
      'customer_created',
      'customer_verified',
      'customer_reverification_needed',
      'customer_suspended',
      'customer_verification_document_needed',
      'customer_verification_document_uploaded',
      'customer_verification_document_approved',
      'customer_verification_document_failed',
    ];
    for (const topic of listed) expect(TOPIC_TEXTS[topic], topic).toBeDefined();
    expect(new Set(listed.map((topic) => topicText(topic))).size).toBe(listed.length);
  });

  it('says a rejection with its reason', () => {
    expect(topicText('customer_verification_document_failed', 'The photo could not be read')).toBe(
      'Document rejected: the photo could not be read',
    );
    expect(topicText('customer_verification_document_failed', 'ID was not recognised')).toBe(
      'Document rejected: ID was not recognised',
    );
    expect(topicText('customer_verification_document_failed')).toBe('Document rejected');
  });

  it('reads a topic it does not know as words rather than an identifier', () => {
    expect(topicText('customer_funding_source_added')).toBe('Customer funding source added');
    expect(topicText('transfer.completed-late')).toBe('Transfer completed late');
    expect(topicText('__')).toBe('Unnamed event');
  });
});
