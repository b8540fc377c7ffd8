import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { parseCheckpoint, parseNote } from '@platform/merkle';
import { findCosignature, parseWitnessVerifierKey } from '@platform/witness';
import { chainTimestamp } from '../../shared/audit-chain';

/** The witnesses whose cosignatures the log accepts: AUDIT_WITNESS_KEYS, C2SP vkeys. */
export type TrustedWitnesses = ReadonlyMap<string, ReturnType<typeof parseWitnessVerifierKey> & object>;

export function trustedWitnesses(verifierKeys: readonly string[]): TrustedWitnesses {
  return new Map(
    verifierKeys.map((vkey) => {
      const parsed = parseWitnessVerifierKey(vkey);
      if (!parsed) throw new Error(`AUDIT_WITNESS_KEYS: not a cosignature/v1 verifier key: ${vkey}`);
      return [parsed.witnessName, parsed] as const;
    }),
  );
}

export interface WitnessRefusalReport {
  witness: string;
  reason: 'truncated' | 'forked' | 'inconsistent';
  cosigned_checkpoint: string;
  offered_checkpoint: string;
  proof: string[] | null;
  refused_at: string;
}

function unknownWitness(witness: string): never {
  throw problems.unprocessable(`${witness} is not a witness this log trusts (AUDIT_WITNESS_KEYS)`, {
    errors: [{ pointer: '/witness', message: 'unknown witness' }],
  });
}

/** The checkpoint note at `seq` (or the newest), carrying every stored witness cosignature line. */
export async function cosignedCheckpointNote(db: Knex, seq?: number): Promise<string | undefined> {
  const query = db('audit_checkpoints').whereNotNull('note').select('seq', 'note').orderBy('seq', 'desc');
  const row: { seq: string; note: string } | undefined = await (seq === undefined ? query.first() : query.where('seq', seq).first());
  if (!row) return undefined;
  const lines: string[] = await db('audit_cosignatures').where('seq', row.seq).orderBy('witness').pluck('signature_line');
  return row.note + lines.join('');
}

/** Stores a witness's cosignature of checkpoint `seq` once it verifies with that witness's configured key. */
export async function addCosignature(
  db: Knex,
  witnesses: TrustedWitnesses,
  seq: number,
  line: string,
): Promise<{ created: boolean; witness: string; cosigned_at: number }> {
  const note = await db('audit_checkpoints').where('seq', seq).whereNotNull('note').first('note');
  if (!note) throw problems.notFound(`No checkpoint note of tree size ${seq}`);
  const body = parseNote(note.note)!.text;
  const witnessName = /^\u2014 (\S+) /.exec(line)?.[1];
  if (!witnessName)
    throw problems.badRequest('Body: cosignature must be one signature line "— <witness> <base64>"', [
      { pointer: '/cosignature', message: 'not a signature line' },
    ]);
  const witness = witnesses.get(witnessName) ?? unknownWitness(witnessName);
  const cosignature = findCosignature(line.endsWith('\n') ? line : `${line}\n`, body, witnessName, witness.publicKey);
  if (!cosignature)
    throw problems.unprocessable('The cosignature does not verify over this checkpoint with the witness key', {
      errors: [{ pointer: '/cosignature', message: 'does not verify' }],
    });
  const inserted = await db('audit_cosignatures')
    .insert({
      seq,
      witness: witnessName,
      cosigned_at: cosignature.time,
      signature_line: cosignature.line,
      received_at: chainTimestamp(new Date()),
    })
    .onConflict(['seq', 'witness'])
    .ignore()
    .returning('seq');
  return { created: inserted.length > 0, witness: witnessName, cosigned_at: cosignature.time };
}

/** Keeps a trusted witness's report that it refused a checkpoint (verify then reports witness_refused). */
export async function addWitnessRefusal(
  db: Knex,
  witnesses: TrustedWitnesses,
  report: WitnessRefusalReport,
): Promise<{ offered_size: number }> {
  if (!witnesses.has(report.witness)) unknownWitness(report.witness);
  const offered = parseNote(report.offered_checkpoint);
  const checkpoint = offered && parseCheckpoint(offered.text);
  if (!checkpoint)
    throw problems.badRequest('Body: offered_checkpoint is not a checkpoint note', [
      { pointer: '/offered_checkpoint', message: 'not a checkpoint note' },
    ]);
  await db('audit_witness_refusals').insert({
    witness: report.witness,
    reason: report.reason,
    cosigned_checkpoint: report.cosigned_checkpoint,
    offered_checkpoint: report.offered_checkpoint,
    offered_size: checkpoint.size,
    proof: report.proof === null ? null : JSON.stringify(report.proof),
    refused_at: report.refused_at,
    received_at: chainTimestamp(new Date()),
  });
  return { offered_size: checkpoint.size };
}

/** The first refusal a witness reported, if any. */
export async function firstWitnessRefusal(db: Knex): Promise<{ witness: string; reason: string; offered_size: number } | undefined> {
  const row = await db('audit_witness_refusals').orderBy('id').first('witness', 'reason', 'offered_size');
  return row && { witness: row.witness, reason: row.reason, offered_size: Number(row.offered_size) };
}

/**
 * Waits until every trusted witness has cosigned checkpoint `seq`, up to `timeoutMs`; whether they all did.
 * Witnesses fetch the latest checkpoint on their own schedule (a hosted one every second in development), so
 * a binder built right after its checkpoint was signed waits a moment to carry their cosignatures too.
 */
export async function awaitCosignatures(db: Knex, witnesses: TrustedWitnesses, seq: number, timeoutMs: number): Promise<boolean> {
  const names = [...witnesses.keys()];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ count }] = await db('audit_cosignatures').where('seq', seq).whereIn('witness', names).count({ count: '*' });
    if (Number(count) >= names.length) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
