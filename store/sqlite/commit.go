package sqlite

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
)

// Group commit. A Save's transaction costs more than its statements:
// BEGIN IMMEDIATE takes the write lock and COMMIT writes every page the
// transaction touched to the WAL (on a server at 16 sessions, a fifth of
// the CPU of an update_plan). SQLite has one writer at a time, so Saves
// made while another is being written wait anyway; they are then written
// together, in one transaction, when the writer is done: the lock is taken
// once and a page that several of them touch (the plans table's, the
// history's last) goes to the WAL once. Each keeps its own answer: a
// Save whose plan changed meanwhile gets store.ErrConflict and writes
// nothing, as it would alone, and the others are unaffected. If a
// statement fails for any other reason, the transaction is rolled back and
// each Save is written alone, so that an error is the Save's own.
//
// There is no goroutine of its own: the first Save to find no one writing
// writes (it leads); Saves that come meanwhile queue; when the leader's
// transaction is done, it hands the lead to the first of them, which
// writes all that have queued. A Save waits for at most the transaction
// before its own, never for an unbounded run of later ones.

// maxGroup bounds the Saves in one transaction, so that one transaction
// holds the write lock (which other processes on the file wait for) for
// a bounded time.
const maxGroup = 64

// testHookTx, if set, is told the number of Saves of each transaction
// writeTx makes.
var testHookTx func(saves int)

// write is one Save waiting to be written.
type write struct {
	ctx    context.Context
	key    store.Key
	plan   *plan.Plan // as stored: the new version and expiry
	data   []byte     // plan as JSON
	expect store.Expect
	now    time.Time
	starts bool     // the history starts over (store.HistoryStarts)
	events [][]byte // the events to append, as JSON

	err  error
	done bool          // err is the answer
	wake chan struct{} // written, or handed the lead
}

// group is the queue of Saves waiting for the writer.
type group struct {
	mu      sync.Mutex
	queue   []*write
	leading bool // a Save is writing
}

// commit writes w, alone or with the Saves queued beside it, and returns
// its answer.
func (g *group) commit(s *Store, w *write) error {
	w.wake = make(chan struct{}, 1)
	g.mu.Lock()
	g.queue = append(g.queue, w)
	lead := !g.leading
	g.leading = true
	g.mu.Unlock()
	if !lead {
		<-w.wake
		if w.done {
			return w.err
		}
		// Handed the lead: w is first in the queue.
	}
	g.mu.Lock()
	n := min(len(g.queue), maxGroup)
	batch := g.queue[:n:n]
	g.queue = g.queue[n:]
	if len(g.queue) == 0 {
		g.queue = nil
	}
	g.mu.Unlock()

	s.writeGroup(batch)

	g.mu.Lock()
	var next *write
	if len(g.queue) > 0 {
		next = g.queue[0]
	} else {
		g.leading = false
	}
	g.mu.Unlock()
	for _, b := range batch {
		b.done = true
		if b != w {
			b.wake <- struct{}{}
		}
	}
	if next != nil {
		next.wake <- struct{}{}
	}
	return w.err
}

// writeGroup writes the Saves of batch and sets each one's err. A Save
// whose context ended before its turn is not written.
func (s *Store) writeGroup(batch []*write) {
	live := batch[:0:0]
	for _, w := range batch {
		if w.err = w.ctx.Err(); w.err == nil {
			live = append(live, w)
		}
	}
	switch {
	case len(live) == 0:
		return
	case len(live) == 1 && !live[0].starts && len(live[0].events) == 0:
		w := live[0]
		if w.err = s.exec(w.ctx, nil, w); w.err == nil {
			s.decoded.Wrote(w.key, w.data, w.plan)
		}
		return
	}
	// The transaction outlives the context of the Save that leads it: it
	// writes the others too. busy_timeout bounds its wait for the lock.
	ctx := context.WithoutCancel(live[0].ctx)
	if err := s.writeTx(ctx, live); err != nil {
		if len(live) == 1 {
			live[0].err = err
			return
		}
		for _, w := range live {
			if err := s.writeTx(ctx, []*write{w}); err != nil {
				w.err = err
			}
		}
	}
}

// writeTx writes ws in one transaction, setting each one's err to nil or
// store.ErrConflict; any other error rolls back all of them and is
// returned.
func (s *Store) writeTx(ctx context.Context, ws []*write) error {
	if testHookTx != nil {
		testHookTx(len(ws))
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, w := range ws {
		w.err = s.exec(ctx, tx, w)
		if w.err != nil && !errors.Is(w.err, store.ErrConflict) {
			return w.err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	for _, w := range ws {
		if w.err == nil {
			s.decoded.Wrote(w.key, w.data, w.plan)
		}
	}
	return nil
}
