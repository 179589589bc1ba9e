require "json"

# A greeter.
class Greeter
  attr_reader :name

  def initialize(name)
    @name = name
  end

  def greet
    "hi #{name}"
  end
end

describe "greeter" do
  it "greets" do
    expect(1).to eq(1)
  end
end
