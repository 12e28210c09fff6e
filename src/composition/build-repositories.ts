import type { DatabaseHandle } from '../db/create-database.ts';
import { DocumentsRepository } from '../repositories/documents-repository.ts';
import { CritiqueRepository } from '../repositories/critique-repository.ts';
import { EmbeddingsRepository } from '../repositories/embeddings-repository.ts';
import { IdeasRepository } from '../repositories/ideas-repository.ts';
import { InboundRepository } from '../repositories/inbound-repository.ts';
import { NotionObjectsRepository } from '../repositories/notion-objects-repository.ts';
import { JobsRepository } from '../repositories/jobs-repository.ts';
import { MessagesRepository } from '../repositories/messages-repository.ts';
import { MaintenanceRepository } from '../repositories/maintenance-repository.ts';
import { MetricsRepository } from '../repositories/metrics-repository.ts';
import { PersonRevisionsRepository } from '../repositories/person-revisions-repository.ts';
import { RunStatesRepository } from '../repositories/run-states-repository.ts';
import { SessionsRepository } from '../repositories/sessions-repository.ts';
import { SessionLeasesRepository } from '../repositories/session-leases-repository.ts';
import { SettingsRepository } from '../repositories/settings-repository.ts';
import { StreamPreviewsRepository } from '../repositories/stream-previews-repository.ts';
import { TracesRepository } from '../repositories/traces-repository.ts';

/** Every repository, built over one database. */
export interface Repositories {
  sessions: SessionsRepository;
  messages: MessagesRepository;
  jobs: JobsRepository;
  runStates: RunStatesRepository;
  settings: SettingsRepository;
  documents: DocumentsRepository;
  traces: TracesRepository;
  embeddings: EmbeddingsRepository;
  notionObjects: NotionObjectsRepository;
  ideas: IdeasRepository;
  inbound: InboundRepository;
  leases: SessionLeasesRepository;
  metrics: MetricsRepository;
  critiques: CritiqueRepository;
  maintenance: MaintenanceRepository;
  previews: StreamPreviewsRepository;
  revisions: PersonRevisionsRepository;
}

/**
 * Builds the repositories over an open database: its engine picks how many rows are read at once (see
 * MessagesRepositoryOptions), and the owner's once-a-second poll runs on its background queue.
 */
export function buildRepositories(database: Pick<DatabaseHandle, 'db' | 'background' | 'engine'>): Repositories {
  const { db, engine } = database;
  return {
    sessions: new SessionsRepository(db),
    messages: new MessagesRepository(db, { manyRowsAs: engine === 'pglite' ? 'json' : 'rows' }),
    jobs: new JobsRepository(db),
    runStates: new RunStatesRepository(db),
    settings: new SettingsRepository(db),
    documents: new DocumentsRepository(db),
    traces: new TracesRepository(db),
    embeddings: new EmbeddingsRepository(db),
    notionObjects: new NotionObjectsRepository(db),
    ideas: new IdeasRepository(db),
    inbound: new InboundRepository(db),
    leases: new SessionLeasesRepository(db, database.background),
    metrics: new MetricsRepository(db),
    critiques: new CritiqueRepository(db),
    maintenance: new MaintenanceRepository(db, engine, database.background),
    previews: new StreamPreviewsRepository(db),
    revisions: new PersonRevisionsRepository(db),
  };
}
