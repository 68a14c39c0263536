package store

import (
	"context"
	"sync"
)

// Notifier fans notifications out to the watchers of a key (a user, or
// what a backend keys its feed by): for backends implementing Watch. The
// zero value is ready to use.
//
// Each watcher's channel holds one value: a notification for a watcher
// that has not taken the last one yet is already pending, and the reload
// that pending one causes sees the newer write too. So a slow watcher
// never blocks a writer and never misses the latest state.
type Notifier struct {
	mu   sync.Mutex
	subs map[string]map[chan struct{}]struct{}
}

// Subscribe returns a channel for key's notifications, closed when ctx
// ends.
func (n *Notifier) Subscribe(ctx context.Context, key string) <-chan struct{} {
	ch := make(chan struct{}, 1)
	n.mu.Lock()
	if n.subs == nil {
		n.subs = make(map[string]map[chan struct{}]struct{})
	}
	if n.subs[key] == nil {
		n.subs[key] = make(map[chan struct{}]struct{})
	}
	n.subs[key][ch] = struct{}{}
	n.mu.Unlock()
	go func() {
		<-ctx.Done()
		n.mu.Lock()
		defer n.mu.Unlock()
		delete(n.subs[key], ch)
		if len(n.subs[key]) == 0 {
			delete(n.subs, key)
		}
		// Under mu: Notify sends under mu too, so never to a closed channel.
		close(ch)
	}()
	return ch
}

// Notify wakes key's watchers.
func (n *Notifier) Notify(key string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for ch := range n.subs[key] {
		wake(ch)
	}
}

// NotifyAll wakes every watcher: for a feed that may have missed writes.
func (n *Notifier) NotifyAll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, subs := range n.subs {
		for ch := range subs {
			wake(ch)
		}
	}
}

// Watchers counts the watchers of every key.
func (n *Notifier) Watchers() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	total := 0
	for _, subs := range n.subs {
		total += len(subs)
	}
	return total
}

func wake(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default: // one is pending already
	}
}
