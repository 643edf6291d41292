package main

import (
	"fmt"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend"
	. "github.com/gomlx/gomlx/core/graph"
	_ "github.com/gomlx/gomlx/core/tensors"
	_ "github.com/gomlx/gomlx/core/tensors/bucketing"
	_ "github.com/gomlx/gomlx/ml/layers"
	_ "github.com/gomlx/gomlx/ml/layers/attention"
	_ "github.com/gomlx/gomlx/ml/layers/norm"
	_ "github.com/gomlx/gomlx/ml/model"
	_ "github.com/gomlx/gomlx/ml/train"
	_ "github.com/gomlx/gomlx/ml/train/loss"
	_ "github.com/gomlx/gomlx/ml/train/metric"
	_ "github.com/gomlx/gomlx/ml/train/optimizer"
	_ "github.com/janpfeifer/gonb/gonbui"
	_ "github.com/traefik/yaegi/interp"
	_ "github.com/traefik/yaegi/stdlib"
	_ "gonum.org/v1/gonum/mat"
	_ "gonum.org/v1/plot"
	_ "gonum.org/v1/plot/plotter"
	_ "gonum.org/v1/plot/vg"
	_ "gonum.org/v1/plot/vg/draw"
)

func main() {
	b := compute.MustNew()
	fmt.Println(b.Name())
	_ = Add
}
