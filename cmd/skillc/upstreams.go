package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"sort"
	"time"

	"github.com/skillc/skillc/gateway"
	"github.com/skillc/skillc/lint"
	"github.com/skillc/skillc/server"
)

// upstreamPool reads --upstreams into a pool (nil without the flag) and
// checks --gate.
func upstreamPool(opts *ServeOptions, logger *slog.Logger) (*gateway.Pool, error) {
	if opts.Gate != "" {
		if _, err := server.ParseGate(opts.Gate); err != nil {
			return nil, usageError("%v", err)
		}
		if opts.Upstreams == "" {
			return nil, usageError("--gate is for --upstreams: without upstream servers there is nothing to gate")
		}
	}
	if opts.Upstreams == "" {
		return nil, nil
	}
	ups, err := gateway.LoadConfig(opts.Upstreams)
	if err != nil {
		return nil, usageError("--upstreams: %v", err)
	}
	if len(ups) == 0 {
		return nil, usageError("--upstreams: %s lists no server (or only disabled ones)", opts.Upstreams)
	}
	return gateway.NewPool(ups, gateway.PoolOptions{Logger: logger, Version: buildVersion(), Stderr: opts.IO.ErrOut}), nil
}

// startUpstreams connects to the upstreams before the first client
// request, so the first tools/list has their tools; one that cannot be
// reached is a warning, and is tried again until it answers.
func startUpstreams(ctx context.Context, opts *ServeOptions, pool *gateway.Pool, srv *server.Server) {
	failed := pool.Start(ctx)
	names := make([]string, 0, len(failed))
	for name := range failed {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(opts.IO.ErrOut, "skillc: warning: upstream %q: %v; its tools are offered once it answers\n", name, failed[name])
	}
	srv.SyncUpstreamTools()
	go pool.Retry(ctx)
}

// toolsFrom returns cfg with the tools of the servers in file added to its
// registry (lint --tools-from). A server that cannot be reached is an
// error: without it, its tools would all be reported unknown.
func toolsFrom(cfg *lint.Config, file string) (*lint.Config, error) {
	ups, err := gateway.LoadConfig(file)
	if err != nil {
		return nil, usageError("--tools-from: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*gateway.DefaultConnectTimeout)
	defer cancel()
	names, err := gateway.Registry(ctx, ups, gateway.PoolOptions{Version: buildVersion(), Stderr: io.Discard, ConnectTimeout: gateway.DefaultConnectTimeout, RetryEvery: time.Second})
	if err != nil {
		return nil, usageError("--tools-from %s: %v", file, err)
	}
	c := *cfg
	c.Tools = slices.Clone(c.Tools)
	c.ToolSources = slices.Clone(c.ToolSources)
	for _, n := range names {
		c.Tools = append(c.Tools, n)
		c.ToolSources = append(c.ToolSources, file)
	}
	c.ToolServers = append(slices.Clone(c.ToolServers), file)
	c.HasTools = true
	return &c, nil
}

// oneProcessorForStdioGateway runs a stdio gateway on one processor
// (GOMAXPROCS=1), unless GOMAXPROCS says otherwise. It serves one client,
// and a forwarded call is a chain of hand-offs between goroutines (stdin,
// the SDK's handler, the upstream's pipe, stdout) around little CPU work:
// on two processors each hand-off could wake a sleeping thread on the
// other. BenchmarkGatewayForward, 6 interleaved runs of 2000 calls, with
// stdin pollable (pollableStdin): p50 ratio 1.91 -> 1.83 (list) and
// 1.92 -> 1.80 (enforce), skillc CPU 272 -> 225 and 262 -> 208 µs/call.
// With a blocking stdin one processor is worse than two: the thread
// reading stdin holds it between messages.
func oneProcessorForStdioGateway() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}
