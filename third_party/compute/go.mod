module github.com/gomlx/compute

go 1.27

require (
	github.com/google/go-cmp v0.7.0
	github.com/pkg/errors v0.9.1
	golang.org/x/exp v0.0.0-20260908205506-85c1c2202aba
	k8s.io/klog/v2 v2.140.0
)

require github.com/go-logr/logr v1.4.3 // indirect
